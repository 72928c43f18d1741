CREATE TABLE "device_commands" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_commands_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"account" text NOT NULL,
	"company_id" integer,
	"device_id" integer,
	"device_sn" text NOT NULL,
	"gateway_sn" text,
	"plant_id" integer,
	"op" text NOT NULL,
	"request" jsonb,
	"idempotency_key" text,
	"status" text NOT NULL,
	"result" jsonb,
	"finished_at" timestamp with time zone,
	"late_reply_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "firmware" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "firmware_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"manufacturer" text NOT NULL,
	"product" text NOT NULL,
	"item_number" text,
	"hw_version" text,
	"sw_version" text NOT NULL,
	"sw_compatible" text,
	"type" text NOT NULL,
	"mode" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"md5" text NOT NULL,
	"sha256" text NOT NULL,
	"signature" text NOT NULL,
	"storage_key" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"change_log" text,
	"creator_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "firmware_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "command_cap_per_minute" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "device_commands_idempotency" ON "device_commands" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "device_commands_at" ON "device_commands" USING btree ("at");--> statement-breakpoint
CREATE INDEX "device_commands_device" ON "device_commands" USING btree ("device_sn","at");--> statement-breakpoint
CREATE INDEX "device_commands_company" ON "device_commands" USING btree ("company_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_type_version" ON "firmware" USING btree ("type","sw_version");