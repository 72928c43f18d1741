ALTER TABLE "smart_rules" ADD COLUMN "acts_for" integer;--> statement-breakpoint
ALTER TABLE "smart_rules" ADD CONSTRAINT "smart_rules_acts_for_users_id_fk" FOREIGN KEY ("acts_for") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
UPDATE "smart_rules" SET "acts_for" = "created_by";