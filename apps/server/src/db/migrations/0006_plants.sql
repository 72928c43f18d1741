CREATE TABLE "plant_layouts" (
	"plant_id" integer NOT NULL,
	"view" text NOT NULL,
	"type" text NOT NULL,
	"content" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plant_layouts_plant_id_view_type_pk" PRIMARY KEY("plant_id","view","type")
);
--> statement-breakpoint
CREATE TABLE "plant_predictions" (
	"plant_id" integer NOT NULL,
	"day" date NOT NULL,
	"energy_wh" double precision NOT NULL,
	CONSTRAINT "plant_predictions_plant_id_day_pk" PRIMARY KEY("plant_id","day")
);
--> statement-breakpoint
CREATE TABLE "plant_shares" (
	"plant_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plant_shares_plant_id_user_id_pk" PRIMARY KEY("plant_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "alias" text;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "grid_date" date;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "region" text;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "picture" text;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "contact_phone" text;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "installer" text;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "owner_name" text;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "metering_topology" text DEFAULT 'gross' NOT NULL;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "tariff" jsonb;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "power_w" double precision;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "energy_today_wh" double precision;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "energy_total_wh" double precision;--> statement-breakpoint
ALTER TABLE "plants" ADD COLUMN "last_update_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "plant_layouts" ADD CONSTRAINT "plant_layouts_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plant_predictions" ADD CONSTRAINT "plant_predictions_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plant_shares" ADD CONSTRAINT "plant_shares_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plant_shares" ADD CONSTRAINT "plant_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plant_shares_user" ON "plant_shares" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "plants_status" ON "plants" USING btree ("status");--> statement-breakpoint
CREATE INDEX "plants_created" ON "plants" USING btree ("created_at","id");--> statement-breakpoint
-- Plants carry the live summary (power, energy today and total) rewritten every few seconds: leave room for HOT updates.
ALTER TABLE "plants" SET (fillfactor = 70);
