CREATE TABLE "ac_switch_task_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ac_switch_task_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"task_id" integer,
	"switch_id" integer NOT NULL,
	"kind" text NOT NULL,
	"on" boolean NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"code" integer,
	"command_id" integer,
	"result" jsonb
);
--> statement-breakpoint
CREATE TABLE "ac_switch_tasks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ac_switch_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"switch_id" integer NOT NULL,
	"kind" text NOT NULL,
	"on" boolean DEFAULT false NOT NULL,
	"date" text,
	"time" text NOT NULL,
	"weekdays" integer DEFAULT 0 NOT NULL,
	"month_day" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ac_switch_task_runs" ADD CONSTRAINT "ac_switch_task_runs_task_id_ac_switch_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."ac_switch_tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ac_switch_task_runs" ADD CONSTRAINT "ac_switch_task_runs_switch_id_ac_switches_id_fk" FOREIGN KEY ("switch_id") REFERENCES "public"."ac_switches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ac_switch_tasks" ADD CONSTRAINT "ac_switch_tasks_switch_id_ac_switches_id_fk" FOREIGN KEY ("switch_id") REFERENCES "public"."ac_switches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ac_switch_tasks" ADD CONSTRAINT "ac_switch_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ac_switch_task_runs_switch_at" ON "ac_switch_task_runs" USING btree ("switch_id","at");--> statement-breakpoint
CREATE INDEX "ac_switch_tasks_switch" ON "ac_switch_tasks" USING btree ("switch_id");--> statement-breakpoint
CREATE INDEX "ac_switch_tasks_due" ON "ac_switch_tasks" USING btree ("next_run_at");