ALTER TABLE "companies" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "kind" text DEFAULT 'maker' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "child_branding" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "notify_subtree" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "firmware" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_parent_id_companies_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware" ADD CONSTRAINT "firmware_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "companies_parent" ON "companies" USING btree ("parent_id");