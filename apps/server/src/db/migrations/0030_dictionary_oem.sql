CREATE TABLE "dict_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dict_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"code" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"internationalised" boolean DEFAULT false NOT NULL,
	"texts" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oem_apks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "oem_apks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"oem_id" integer NOT NULL,
	"version" text NOT NULL,
	"file" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oem_projects" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "oem_projects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"customer_name" text NOT NULL,
	"domain" text NOT NULL,
	"domain_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"app_name" text NOT NULL,
	"theme_color" text NOT NULL,
	"ios_url" text,
	"android_url" text,
	"images" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oem_projects_company_id_unique" UNIQUE("company_id"),
	CONSTRAINT "oem_projects_domain_unique" UNIQUE("domain")
);
--> statement-breakpoint
ALTER TABLE "oem_apks" ADD CONSTRAINT "oem_apks_oem_id_oem_projects_id_fk" FOREIGN KEY ("oem_id") REFERENCES "public"."oem_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oem_projects" ADD CONSTRAINT "oem_projects_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dict_entries_type_code" ON "dict_entries" USING btree ("type","code");--> statement-breakpoint
CREATE UNIQUE INDEX "oem_apks_version" ON "oem_apks" USING btree ("oem_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "oem_apks_sha" ON "oem_apks" USING btree ("oem_id","sha256");