CREATE TABLE "ac_switches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ac_switches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sn" text NOT NULL,
	"key_hash" text NOT NULL,
	"company_id" integer,
	"customer_id" integer,
	"plant_id" integer,
	"master_id" integer,
	"alias" text,
	"frequency" integer DEFAULT 5 NOT NULL,
	"associate_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ac_switches_sn_unique" UNIQUE("sn")
);
--> statement-breakpoint
ALTER TABLE "ac_switches" ADD CONSTRAINT "ac_switches_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ac_switches" ADD CONSTRAINT "ac_switches_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ac_switches" ADD CONSTRAINT "ac_switches_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ac_switches" ADD CONSTRAINT "ac_switches_associate_user_id_users_id_fk" FOREIGN KEY ("associate_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ac_switches_company" ON "ac_switches" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "ac_switches_plant" ON "ac_switches" USING btree ("plant_id");--> statement-breakpoint
CREATE INDEX "ac_switches_master" ON "ac_switches" USING btree ("master_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ac_switches_sn_lower" ON "ac_switches" USING btree (lower("sn"));