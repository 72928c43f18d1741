CREATE TABLE "event_descriptions" (
	"protocol_id" text NOT NULL,
	"code" integer NOT NULL,
	"language" text NOT NULL,
	"description" text NOT NULL,
	"solution" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "event_descriptions_protocol_id_code_language_pk" PRIMARY KEY("protocol_id","code","language")
);
--> statement-breakpoint
CREATE TABLE "file_download_records" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "file_download_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"company_id" integer,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"rows" integer,
	"size_bytes" bigint,
	"path" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "gateway_connection_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateway_connection_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"gateway_sn" text NOT NULL,
	"kind" text NOT NULL,
	"address" text,
	"reason" text,
	"session_seconds" integer,
	"count" integer
);
--> statement-breakpoint
ALTER TABLE "file_download_records" ADD CONSTRAINT "file_download_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_download_records_user" ON "file_download_records" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "file_download_records_expiry" ON "file_download_records" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "gateway_connection_log_sn" ON "gateway_connection_log" USING btree ("gateway_sn","at");--> statement-breakpoint
CREATE INDEX "gateway_connection_log_at" ON "gateway_connection_log" USING btree ("at");