CREATE TABLE "company_apps" (
	"company_id" integer NOT NULL,
	"app" text NOT NULL,
	"enabled" boolean NOT NULL,
	"changed_by" integer,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_apps_company_id_app_pk" PRIMARY KEY("company_id","app")
);
--> statement-breakpoint
CREATE TABLE "light_bridges" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"expires_at" timestamp with time zone,
	"connected_by" integer,
	"connected_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "light_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"verifier" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lights" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lights_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"bridge_light_id" text NOT NULL,
	"name" text NOT NULL,
	"plant_id" integer,
	"on" boolean DEFAULT false NOT NULL,
	"brightness" smallint DEFAULT 0 NOT NULL,
	"color_temperature" integer DEFAULT 2700 NOT NULL,
	"reachable" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "smart_rule_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "smart_rule_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rule_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"values" jsonb NOT NULL,
	"results" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "smart_rules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "smart_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"plant_id" integer NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"conditions" jsonb NOT NULL,
	"actions" jsonb NOT NULL,
	"min_interval_seconds" integer DEFAULT 300 NOT NULL,
	"holding_since" timestamp with time zone,
	"active" boolean DEFAULT false NOT NULL,
	"last_fired_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "company_apps" ADD CONSTRAINT "company_apps_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_apps" ADD CONSTRAINT "company_apps_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "light_bridges" ADD CONSTRAINT "light_bridges_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "light_bridges" ADD CONSTRAINT "light_bridges_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "light_oauth_states" ADD CONSTRAINT "light_oauth_states_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "light_oauth_states" ADD CONSTRAINT "light_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lights" ADD CONSTRAINT "lights_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lights" ADD CONSTRAINT "lights_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smart_rule_runs" ADD CONSTRAINT "smart_rule_runs_rule_id_smart_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."smart_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smart_rules" ADD CONSTRAINT "smart_rules_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smart_rules" ADD CONSTRAINT "smart_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lights_company_bridge_id" ON "lights" USING btree ("company_id","bridge_light_id");--> statement-breakpoint
CREATE INDEX "lights_plant" ON "lights" USING btree ("plant_id");--> statement-breakpoint
CREATE INDEX "smart_rule_runs_rule_at" ON "smart_rule_runs" USING btree ("rule_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "smart_rules_plant_name" ON "smart_rules" USING btree ("plant_id","name");--> statement-breakpoint
CREATE INDEX "smart_rules_plant" ON "smart_rules" USING btree ("plant_id");