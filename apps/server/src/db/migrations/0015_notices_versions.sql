CREATE TABLE "notices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"type" smallint NOT NULL,
	"scope" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"effective_time" timestamp with time zone NOT NULL,
	"impact" smallint NOT NULL,
	"zh_desc" text NOT NULL,
	"en_desc" text NOT NULL,
	"zh_duration" text NOT NULL,
	"en_duration" text NOT NULL,
	"suggests" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"creator_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "system_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "system_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"version" text NOT NULL,
	"zh_content" text NOT NULL,
	"en_content" text NOT NULL,
	"publisher_id" integer,
	"release_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "system_versions_version_unique" UNIQUE("version")
);
--> statement-breakpoint
CREATE INDEX "notices_window" ON "notices" USING btree ("status","start_time","end_time");