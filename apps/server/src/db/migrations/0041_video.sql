CREATE TABLE "video_channels" (
	"device_id" integer NOT NULL,
	"gb_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"manufacturer" text,
	"model" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_channels_device_id_gb_id_pk" PRIMARY KEY("device_id","gb_id")
);
--> statement-breakpoint
CREATE TABLE "video_devices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "video_devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"sip_id" text NOT NULL,
	"password_sealed" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"remote_address" text,
	"manufacturer" text,
	"model" text,
	"registered_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"last_keepalive_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_devices_sip_id_unique" UNIQUE("sip_id")
);
--> statement-breakpoint
CREATE TABLE "video_grants" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"granted_by" integer,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_spaces" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "video_spaces_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"customer_id" integer,
	"name" text NOT NULL,
	"storage_gb" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "video_channels" ADD CONSTRAINT "video_channels_device_id_video_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."video_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_devices" ADD CONSTRAINT "video_devices_space_id_video_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."video_spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_devices" ADD CONSTRAINT "video_devices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_grants" ADD CONSTRAINT "video_grants_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_grants" ADD CONSTRAINT "video_grants_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_spaces" ADD CONSTRAINT "video_spaces_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_spaces" ADD CONSTRAINT "video_spaces_customer_id_company_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."company_customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_devices_space" ON "video_devices" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "video_devices_company" ON "video_devices" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "video_spaces_company" ON "video_spaces" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "video_spaces_customer" ON "video_spaces" USING btree ("customer_id");