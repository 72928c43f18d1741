CREATE TABLE "operation_log" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operation_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"account" text NOT NULL,
	"company_id" integer,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target" text NOT NULL,
	"plant_id" integer,
	"request" jsonb,
	"result" text NOT NULL,
	"detail" text
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "brand" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "main_meter" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "settings" jsonb;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "locked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "server_address" text;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "digital_output" boolean;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "connection_password_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "replaced_by_id" integer;--> statement-breakpoint
CREATE INDEX "operation_log_at" ON "operation_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "operation_log_target" ON "operation_log" USING btree ("target","at");--> statement-breakpoint
CREATE INDEX "device_events_opened" ON "device_events" USING btree ("opened_at");--> statement-breakpoint
CREATE INDEX "device_events_device" ON "device_events" USING btree ("device_id","opened_at");--> statement-breakpoint
CREATE INDEX "devices_family_status" ON "devices" USING btree ("family","status");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_main_meter" ON "devices" USING btree ("plant_id") WHERE "devices"."main_meter";--> statement-breakpoint
CREATE INDEX "gateways_company" ON "gateways" USING btree ("company_id");