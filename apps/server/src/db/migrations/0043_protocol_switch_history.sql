CREATE TABLE "device_protocol_switches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_protocol_switches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"device_id" integer NOT NULL,
	"switched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"from_protocol" text NOT NULL,
	"from_version" integer,
	"from_order" jsonb NOT NULL,
	"to_protocol" text NOT NULL,
	"to_version" integer NOT NULL,
	"to_order" jsonb NOT NULL,
	"readings" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "readings_before_switch" (
	"switch_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"values" double precision[] NOT NULL,
	CONSTRAINT "readings_before_switch_switch_id_ts_pk" PRIMARY KEY("switch_id","ts")
);
--> statement-breakpoint
ALTER TABLE "device_protocol_switches" ADD CONSTRAINT "device_protocol_switches_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readings_before_switch" ADD CONSTRAINT "readings_before_switch_switch_id_device_protocol_switches_id_fk" FOREIGN KEY ("switch_id") REFERENCES "public"."device_protocol_switches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_protocol_switches_device" ON "device_protocol_switches" USING btree ("device_id","switched_at");