CREATE TABLE "plant_energy_daily" (
	"plant_id" integer NOT NULL,
	"day" date NOT NULL,
	"energy_wh" double precision NOT NULL,
	CONSTRAINT "plant_energy_daily_plant_id_day_pk" PRIMARY KEY("plant_id","day")
);
--> statement-breakpoint
ALTER TABLE "plant_energy_daily" ADD CONSTRAINT "plant_energy_daily_plant_id_plants_id_fk" FOREIGN KEY ("plant_id") REFERENCES "public"."plants"("id") ON DELETE cascade ON UPDATE no action;