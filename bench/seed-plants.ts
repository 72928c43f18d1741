import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { hashPassword } from '../apps/server/src/features/auth/password.js';

/**
 * Seeds `count` plants in 3 companies spread over Europe and Asia (statuses mostly normal, some
 * offline, warning, fault), 3 inverters each, a year of daily energy, and a company administrator
 * company@bench.local (the first company) with `password`. Used by bench/plants.ts and bench/plant-map.ts.
 */
export async function seedPlants(db: Database, count: number, password: string): Promise<void> {
  await db.execute(sql`insert into companies (name) select 'Bench company ' || i from generate_series(1, 3) i`);
  // Plants spread over Europe and Asia, statuses mostly normal, a few offline, warning, fault.
  await db.execute(sql`insert into plants (name, company_id, plant_type, capacity_kwp, latitude, longitude, timezone, region, grid_date, status,
      power_w, energy_today_wh, energy_total_wh, last_update_at, tariff)
    select 'Plant ' || lpad(i::text, 5, '0') || case when i % 7 = 0 then ' Rooftop' else ' Field' end,
      (select min(id) from companies) + i % 3, 1 + i % 3, 5 + (i * 37) % 995, 20 + (i * 7919 % 4000) / 100.0, -10 + (i * 104729 % 13000) / 100.0,
      'Europe/Berlin', (array['Germany','Spain','China','Vietnam','Brazil','Turkey'])[1 + i % 6], date '2018-01-01' + (i % 2500),
      case when i % 50 = 0 then 4 when i % 20 = 0 then 3 when i % 10 = 0 then 2 else 1 end,
      (i * 131 % 1000) * 100.0, (i * 17 % 500) * 1000.0, (i * 53 % 9000) * 100000.0, now() - make_interval(secs => i % 600),
      '{"currency":"EUR","pricingMethod":"constant","price":0.2}'::jsonb
    from generate_series(1, ${count}) i`);
  await db.execute(sql`insert into devices (sn, plant_id, family, protocol_id, status)
    select 'PB' || lpad(p.id::text, 6, '0') || k, p.id, 'inverter', 'sunspec-inverter-3p', p.status from plants p, generate_series(1, 3) k`);
  await db.execute(sql`insert into plant_energy_daily (plant_id, day, energy_wh)
    select p.id, d::date, 3000.0 * p.capacity_kwp * (0.6 + 0.4 * sin(extract(doy from d) / 58.0))
    from plants p, generate_series(current_date - 364, current_date, interval '1 day') d`);
  const companyId = Number(
    ((await db.execute(sql`select min(id) as id from companies`)) as unknown as { rows: { id: number }[] }).rows[0]?.id,
  );
  const role = (await db.execute(sql`select id from roles where key = 'company_admin'`)) as unknown as { rows: { id: number }[] };
  await db.execute(sql`insert into users (account, password_hash, nickname, role_id, company_id)
    values ('company@bench.local', ${await hashPassword(password)}, 'Company admin', ${role.rows[0]?.id ?? 0}, ${companyId})`);
  await db.execute(sql`vacuum analyze`);
}
