ALTER TABLE "gateways" ADD COLUMN "manufacturer" text;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "model" text;