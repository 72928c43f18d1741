CREATE TABLE "background_jobs" (
	"name" text PRIMARY KEY NOT NULL,
	"every_ms" integer NOT NULL,
	"next_due" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"owner" text,
	"run_started_at" timestamp with time zone,
	"attempt" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "job_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"job" text NOT NULL,
	"owner" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"result" text NOT NULL,
	"attempt" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE INDEX "job_runs_job_id" ON "job_runs" USING btree ("job","id");