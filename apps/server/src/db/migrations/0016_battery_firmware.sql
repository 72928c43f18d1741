CREATE TABLE "battery_products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "battery_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"manufacturer" text NOT NULL,
	"model" text NOT NULL,
	"battery_type_id" integer NOT NULL,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "battery_products_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "battery_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "battery_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"parent_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "firmware" ADD COLUMN "battery_type_id" integer;--> statement-breakpoint
ALTER TABLE "firmware" ADD COLUMN "battery_product_id" integer;--> statement-breakpoint
ALTER TABLE "battery_products" ADD CONSTRAINT "battery_products_battery_type_id_battery_types_id_fk" FOREIGN KEY ("battery_type_id") REFERENCES "public"."battery_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "battery_types" ADD CONSTRAINT "battery_types_parent_id_battery_types_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."battery_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "battery_types_primary_name" ON "battery_types" USING btree ("name") WHERE "battery_types"."parent_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "battery_types_secondary_name" ON "battery_types" USING btree ("parent_id","name");--> statement-breakpoint
ALTER TABLE "firmware" ADD CONSTRAINT "firmware_battery_type_id_battery_types_id_fk" FOREIGN KEY ("battery_type_id") REFERENCES "public"."battery_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware" ADD CONSTRAINT "firmware_battery_product_id_battery_products_id_fk" FOREIGN KEY ("battery_product_id") REFERENCES "public"."battery_products"("id") ON DELETE no action ON UPDATE no action;