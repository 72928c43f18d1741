CREATE TABLE "energy_hub_devices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "energy_hub_devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"enrollment_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"sn" text NOT NULL,
	"manufacturer" text NOT NULL,
	"model" text NOT NULL,
	"install_date" date NOT NULL,
	"storage_kwh" double precision NOT NULL,
	"charge_kw" double precision NOT NULL,
	"participates" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "energy_hub_enrollments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "energy_hub_enrollments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"plant_id" integer NOT NULL,
	"user_id" integer,
	"program_id" text NOT NULL,
	"source_account" text NOT NULL,
	"utility_account" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"service_address" jsonb NOT NULL,
	"mailing_address" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"min_soc_pct" integer DEFAULT 20 NOT NULL,
	"max_discharge_w" integer,
	"vtn_url" text,
	"ven_name" text,
	"ven_id" text,
	"registration_id" text,
	"last_poll_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "energy_hub_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "energy_hub_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"enrollment_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"participation_level" integer DEFAULT 0 NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"power_w" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"response" text DEFAULT 'none' NOT NULL,
	"source" text DEFAULT 'console' NOT NULL,
	"modification_number" integer DEFAULT 0 NOT NULL,
	"request_id" text,
	"response_pending" boolean DEFAULT false NOT NULL,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "energy_hub_results" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "energy_hub_results_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"sn" text NOT NULL,
	"outcome" text NOT NULL,
	"code" integer,
	"asked_w" double precision NOT NULL,
	"asked_wh" double precision NOT NULL,
	"start_counter_wh" double precision,
	"delivered_wh" double precision DEFAULT 0 NOT NULL,
	"start_soc_pct" real,
	"soc_pct" real,
	"command_id" integer,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "energy_hub_devices" ADD CONSTRAINT "energy_hub_devices_enrollment_id_energy_hub_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."energy_hub_enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_hub_devices" ADD CONSTRAINT "energy_hub_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_hub_enrollments" ADD CONSTRAINT "energy_hub_enrollments_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_hub_enrollments" ADD CONSTRAINT "energy_hub_enrollments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_hub_events" ADD CONSTRAINT "energy_hub_events_enrollment_id_energy_hub_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."energy_hub_enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_hub_results" ADD CONSTRAINT "energy_hub_results_event_id_energy_hub_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."energy_hub_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "energy_hub_results" ADD CONSTRAINT "energy_hub_results_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "energy_hub_devices_enrollment" ON "energy_hub_devices" USING btree ("enrollment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "energy_hub_devices_live_device" ON "energy_hub_devices" USING btree ("device_id") WHERE "energy_hub_devices"."active";--> statement-breakpoint
CREATE INDEX "energy_hub_enrollments_plant" ON "energy_hub_enrollments" USING btree ("plant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "energy_hub_enrollments_live_plant" ON "energy_hub_enrollments" USING btree ("plant_id") WHERE "energy_hub_enrollments"."active";--> statement-breakpoint
CREATE UNIQUE INDEX "energy_hub_enrollments_live_account" ON "energy_hub_enrollments" USING btree ("program_id","utility_account") WHERE "energy_hub_enrollments"."active";--> statement-breakpoint
CREATE UNIQUE INDEX "energy_hub_events_event" ON "energy_hub_events" USING btree ("enrollment_id","event_id");--> statement-breakpoint
CREATE INDEX "energy_hub_events_due" ON "energy_hub_events" USING btree ("state","start_at");--> statement-breakpoint
CREATE UNIQUE INDEX "energy_hub_results_device" ON "energy_hub_results" USING btree ("event_id","device_id");