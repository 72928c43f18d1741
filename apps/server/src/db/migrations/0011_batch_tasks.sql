CREATE TABLE "batch_task_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "batch_task_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"task_id" integer NOT NULL,
	"sn" text NOT NULL,
	"wave" smallint DEFAULT 1 NOT NULL,
	"status" text NOT NULL,
	"command_id" integer,
	"message" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batch_tasks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "batch_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"type" text NOT NULL,
	"firm_id" integer NOT NULL,
	"target_version" text NOT NULL,
	"run_at" timestamp with time zone,
	"status" text NOT NULL,
	"canary_percent" integer DEFAULT 0 NOT NULL,
	"failure_threshold_percent" integer DEFAULT 100 NOT NULL,
	"paused_reason" text,
	"user_id" integer NOT NULL,
	"account" text NOT NULL,
	"company_id" integer,
	"role_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "batch_task_items" ADD CONSTRAINT "batch_task_items_task_id_batch_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."batch_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "batch_task_items_sn" ON "batch_task_items" USING btree ("task_id","sn");--> statement-breakpoint
CREATE INDEX "batch_task_items_status" ON "batch_task_items" USING btree ("task_id","status");