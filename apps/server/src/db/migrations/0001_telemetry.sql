CREATE TABLE "device_energy_daily" (
	"device_id" integer NOT NULL,
	"day" date NOT NULL,
	"counter_min_wh" double precision,
	"counter_max_wh" double precision,
	"peak_w" double precision,
	CONSTRAINT "device_energy_daily_device_id_day_pk" PRIMARY KEY("device_id","day")
);
--> statement-breakpoint
CREATE TABLE "device_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"device_id" integer NOT NULL,
	"plant_id" integer,
	"code" integer NOT NULL,
	"level" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_realtime" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"values" real[] NOT NULL,
	"power_w" double precision,
	"energy_total_wh" double precision,
	"soc" real
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sn" text NOT NULL,
	"gateway_id" integer,
	"plant_id" integer,
	"parent_id" integer,
	"family" text NOT NULL,
	"protocol_id" text NOT NULL,
	"alias" text,
	"model" text,
	"rated_power_w" double precision,
	"status" smallint DEFAULT 2 NOT NULL,
	"last_report_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_sn_unique" UNIQUE("sn")
);
--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateways_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sn" text NOT NULL,
	"key_hash" text NOT NULL,
	"plant_id" integer,
	"company_id" integer,
	"alias" text,
	"online" boolean DEFAULT false NOT NULL,
	"status" smallint DEFAULT 2 NOT NULL,
	"last_online_at" timestamp with time zone,
	"last_ip" text,
	"rssi" smallint,
	"comm_type" text,
	"iccid" text,
	"hw_version" text,
	"fw_version" text,
	"report_interval_s" integer DEFAULT 300 NOT NULL,
	"last_seq" integer,
	"gap_count" integer DEFAULT 0 NOT NULL,
	"last_report_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateways_sn_unique" UNIQUE("sn")
);
--> statement-breakpoint
CREATE TABLE "plants" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "plants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"company_id" integer,
	"owner_id" integer,
	"plant_type" smallint DEFAULT 1 NOT NULL,
	"capacity_kwp" double precision NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"timezone" text NOT NULL,
	"address" text,
	"status" smallint DEFAULT 2 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "readings" (
	"device_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"values" real[] NOT NULL,
	CONSTRAINT "readings_device_id_ts_pk" PRIMARY KEY("device_id","ts")
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
-- Hand-added: monthly partitions are created ahead by the server (ensureReadingPartitions); the default
-- partition catches anything outside them, so no reading is ever refused for lack of a partition.
CREATE TABLE "readings_default" PARTITION OF "readings" DEFAULT;
--> statement-breakpoint
ALTER TABLE "device_energy_daily" ADD CONSTRAINT "device_energy_daily_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_events" ADD CONSTRAINT "device_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_realtime" ADD CONSTRAINT "device_realtime_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plants" ADD CONSTRAINT "plants_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plants" ADD CONSTRAINT "plants_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_events_open" ON "device_events" USING btree ("device_id","code") WHERE "device_events"."cleared_at" is null;--> statement-breakpoint
CREATE INDEX "device_events_plant" ON "device_events" USING btree ("plant_id","opened_at");--> statement-breakpoint
CREATE INDEX "devices_plant" ON "devices" USING btree ("plant_id");--> statement-breakpoint
CREATE INDEX "devices_gateway" ON "devices" USING btree ("gateway_id");--> statement-breakpoint
CREATE INDEX "gateways_plant" ON "gateways" USING btree ("plant_id");--> statement-breakpoint
CREATE INDEX "plants_company" ON "plants" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "plants_owner" ON "plants" USING btree ("owner_id");