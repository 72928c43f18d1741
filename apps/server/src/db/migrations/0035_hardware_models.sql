CREATE TABLE "hardware_models" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hardware_models_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"manufacturer" text NOT NULL,
	"model" text NOT NULL,
	"kind" text NOT NULL,
	"protocol_identifier" text,
	"firmware_compatible" text,
	"built_in" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hardware_models" ADD CONSTRAINT "hardware_models_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hardware_models_name" ON "hardware_models" USING btree (lower("manufacturer"),lower("model"));