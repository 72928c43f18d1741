-- Serial numbers become unique regardless of case (docs/decisions.md "Serial numbers and case").
-- Rows registered before this that differ from an older one only by case keep their history but get a
-- visibly different SN: the oldest keeps its SN, each later one becomes '<sn>~<id>' ('~' is never part of a
-- real SN), so the unique index can be built and an operator can find them by the '~'.
UPDATE "gateways" SET "sn" = "sn" || '~' || "id"
WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY lower("sn") ORDER BY "id") AS "n" FROM "gateways"
  ) AS "ranked" WHERE "n" > 1
);--> statement-breakpoint
UPDATE "devices" SET "sn" = "sn" || '~' || "id"
WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY lower("sn") ORDER BY "id") AS "n" FROM "devices"
  ) AS "ranked" WHERE "n" > 1
);--> statement-breakpoint
CREATE UNIQUE INDEX "devices_sn_lower" ON "devices" USING btree (lower("sn"));--> statement-breakpoint
CREATE UNIQUE INDEX "gateways_sn_lower" ON "gateways" USING btree (lower("sn"));
