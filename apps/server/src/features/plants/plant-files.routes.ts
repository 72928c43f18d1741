import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { PLANT_LIMITS } from '@sunward/contracts/plants';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { computed, nullable, sqlRows } from '../../db/rows.js';
import { plantEnergyDaily, plantPredictions } from '../../db/schema.js';
import { sendDownload, XLSX_TYPE } from '../../lib/download.js';
import { ApiError, ok } from '../../lib/envelope.js';
import { spreadsheetLimitParams } from '../../lib/spreadsheet.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { DownloadCentre, StartJob } from '../files/files.service.js';
import type { PlantAccess } from './plant-access.js';
import { generationWorkbook, MAX_PREDICTION_ROWS, parsePredictionWorkbook, sniffPicture } from './plant-files.js';
import type { PlantsRepository } from './plants.repository.js';

const TAGS = ['Plants'];
const PICTURE_NAME = /^[a-f0-9]{32}\.(jpg|png)$/;

/** Multipart bodies arrive as key → value (fields) or Buffer (files): see plugins/body-parsers.ts. */
function fileOf(body: unknown, field: string): Buffer {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  const file = Array.isArray(value) ? undefined : value;
  if (!Buffer.isBuffer(file)) throw new ApiError(Code.VALIDATION, {}, { errors: [{ field, message: 'validation.required' }] });
  return file;
}

/** Plant pictures, prediction import, generation download and the in-China check (the dictionaries: features/dictionary). */
export const plantFilesRoutes: FastifyPluginAsyncZod<{
  db: Database;
  repository: PlantsRepository;
  access: PlantAccess;
  dataDir: string;
  pictureMaxBytes: number;
  inChina: boolean;
  /** The download centre, for generation downloads prepared in the background (issue 21); made later. */
  downloads?: () => DownloadCentre;
}> = async (app, { db, repository, access, dataDir, pictureMaxBytes, inChina, downloads }) => {
  const pictureDir = join(dataDir, 'uploads', 'plants');

  app.post(
    '/api/v1/plant/thumbnail',
    {
      config: { access: { kind: 'manage', key: 'station.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Uploads a plant picture (multipart field "file": JPG/JPEG/PNG, 3 MB or the PLANT_PICTURE_MAX_MB setting)',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(z.object({ url: z.string() })) },
      },
    },
    async (request) => {
      const file = fileOf(request.body, 'file');
      const type = sniffPicture(file);
      if (!type)
        throw new ApiError(
          Code.VALIDATION,
          {},
          { errors: [{ field: 'file', message: translate(request.language, 'validation.pictureType') }] },
        );
      if (file.length > pictureMaxBytes)
        throw new ApiError(
          Code.VALIDATION,
          {},
          {
            errors: [
              { field: 'file', message: translate(request.language, 'validation.pictureSize', { max: pictureMaxBytes / 1024 / 1024 }) },
            ],
          },
        );
      // Random names: the picture is fetched by <img> without a bearer token, so the name is the secret.
      const name = `${randomBytes(16).toString('hex')}.${type}`;
      await mkdir(pictureDir, { recursive: true });
      await writeFile(join(pictureDir, name), file);
      return ok(request, { url: `/api/v1/files/plants/${name}` });
    },
  );

  app.get(
    '/api/v1/files/plants/:name',
    {
      config: { access: 'public' },
      schema: {
        tags: TAGS,
        summary: 'A plant picture by its unguessable name',
        params: z.object({ name: z.string().regex(PICTURE_NAME) }),
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const bytes = await readFile(join(pictureDir, name)).catch(() => undefined);
      if (!bytes) throw new ApiError(Code.NOT_FOUND);
      return reply
        .type(name.endsWith('.png') ? 'image/png' : 'image/jpeg')
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(bytes);
    },
  );

  app.post(
    '/api/v1/predicted/import',
    {
      config: { access: { kind: 'manage', key: 'station.import' } },
      schema: {
        tags: TAGS,
        summary: 'Imports predicted generation from one .xlsx or .xls file (multipart: plantId, file; column A date, column B kWh)',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(z.object({ imported: z.number() })) },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const plantId = IdParamSchema.safeParse(body.plantId);
      if (!plantId.success)
        throw new ApiError(
          Code.VALIDATION,
          {},
          { errors: [{ field: 'plantId', message: translate(request.language, 'validation.required') }] },
        );
      await access.require(request.requireAuth(), plantId.data, 'manage');
      const files = Object.values(body).filter((v) => Buffer.isBuffer(v) || (Array.isArray(v) && v.some((x) => Buffer.isBuffer(x))));
      const language = request.language;
      const refuse = (problem: string) => new ApiError(Code.IMPORT_FILE_INVALID, { problem });
      if (files.length !== 1 || Array.isArray(body.file)) throw refuse(translate(language, 'import.oneFile'));
      const file = fileOf(body, 'file');
      const parsed = parsePredictionWorkbook(file);
      if (!parsed.ok) {
        const p = parsed.problem;
        throw refuse(
          p.kind === 'row'
            ? translate(language, 'import.badRow', {
                row: p.row,
                problem: translate(language, p.problem === 'badDate' ? 'import.badDate' : 'import.badEnergy'),
              })
            : p.kind === 'tooManyRows'
              ? translate(language, 'import.tooManyRows', { max: MAX_PREDICTION_ROWS })
              : p.kind === 'tooLarge'
                ? translate(language, 'import.tooLarge', spreadsheetLimitParams())
                : translate(language, p.kind === 'empty' ? 'import.empty' : 'import.unreadable'),
        );
      }
      await repository.savePredictions(plantId.data, parsed.rows);
      return ok(request, { imported: parsed.rows.length });
    },
  );

  const GenerationQuerySchema = z.object({ plantId: IdParamSchema, from: z.iso.date(), to: z.iso.date() });
  type GenerationQuery = z.infer<typeof GenerationQuerySchema>;

  /** Checks a generation download's plant and period; answers how many days it spans. */
  async function checkGeneration(auth: AuthContext, { plantId, from, to }: GenerationQuery, language: Language): Promise<number> {
    await access.require(auth, plantId, 'view');
    if (to < from)
      throw new ApiError(Code.VALIDATION, {}, { errors: [{ field: 'to', message: translate(language, 'validation.invalidValue') }] });
    return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  }

  /** The daily generation workbook of a plant over a period (immediate download and download centre alike). */
  async function generationFile({ plantId, from, to }: GenerationQuery, language: Language) {
    const plant = await repository.record(plantId);
    if (!plant) throw new ApiError(Code.PLANT_NOT_FOUND);
    const rows = await sqlRows(
      db,
      { day: computed.text, energy_wh: nullable(plantEnergyDaily.energyWh), predicted_wh: nullable(plantPredictions.energyWh) },
      sql`select to_char(d, 'YYYY-MM-DD') as day, e.energy_wh, p.energy_wh as predicted_wh
          from generate_series(${from}::date, ${to}::date, interval '1 day') as d
          left join plant_energy_daily e on e.plant_id = ${plantId} and e.day = d::date
          left join plant_predictions p on p.plant_id = ${plantId} and p.day = d::date
          where e.energy_wh is not null or p.energy_wh is not null order by d`,
    );
    const bytes = await generationWorkbook(
      plant.name,
      rows.map((r) => ({ day: r.day, energyWh: r.energy_wh ?? 0, predictedWh: r.predicted_wh })),
      {
        day: translate(language, 'export.day'),
        energy: translate(language, 'export.energyKwh'),
        predicted: translate(language, 'export.predictedKwh'),
      },
    );
    return { bytes, rows: rows.length, fileName: `generation-${plantId}-${from}-${to}.xlsx` };
  }

  app.get(
    '/api/v1/plant/generation/download',
    {
      config: { access: 'station.export' },
      schema: {
        tags: TAGS,
        summary: 'Daily generation of a plant as .xlsx; refused above 20,000 records (code 706)',
        querystring: GenerationQuerySchema,
      },
    },
    async (request, reply) => {
      const count = await checkGeneration(request.requireAuth(), request.query, request.language);
      if (count > PLANT_LIMITS.downloadRowsMax) throw new ApiError(Code.TOO_MANY_RECORDS, { count, max: PLANT_LIMITS.downloadRowsMax });
      const { bytes, fileName } = await generationFile(request.query, request.language);
      return sendDownload(reply, { type: XLSX_TYPE, fileName, bytes });
    },
  );

  app.post(
    '/api/v1/plant/generation/download/background',
    {
      config: {
        access: { kind: 'view', key: 'station.export', readsOnly: "prepares the export as a file in the caller's own download centre" },
      },
      schema: {
        tags: TAGS,
        summary: 'Daily generation of a plant as .xlsx, prepared in the download centre with no row cap (issue 21)',
        querystring: GenerationQuerySchema,
        response: { 200: envelopeSchema(DownloadRecordSchema) },
      },
    },
    async (request) => {
      const auth = request.requireAuth();
      const { language, query } = request;
      await checkGeneration(auth, query, language);
      return ok(
        request,
        await generationJob()(
          { userId: auth.userId, companyId: auth.companyId, language },
          { fileName: `generation-${query.plantId}-${query.from}-${query.to}.xlsx`, format: 'xlsx' },
          { plantId: query.plantId, from: query.from, to: query.to },
        ),
      );
    },
  );

  /**
   * The generation download as a download-centre job kind (access was checked when it was asked for): one
   * under way when the server stops runs again after. Registered once the centre exists (made after this
   * plugin in app.ts; the centre claims its unfinished records when the kind registers).
   */
  let startGeneration: StartJob<{ plantId: number; from: string; to: string }> | undefined;
  function generationJob() {
    if (startGeneration) return startGeneration;
    const centre = downloads?.();
    if (!centre) throw new Error('the download centre is not configured');
    startGeneration = centre.registerJob(
      'generation',
      (raw) => GenerationQuerySchema.parse(raw),
      (params, owner) => async (job) => {
        const file = await generationFile(params, owner.language);
        await writeFile(job.file, file.bytes);
        job.progress(file.rows, file.rows);
        return { rows: file.rows };
      },
    );
    return startGeneration;
  }
  app.addHook('onReady', async () => {
    if (downloads?.()) generationJob();
  });

  app.get(
    '/anonymous/ip',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Authentication and account'],
        summary: 'The caller’s address and whether to use map tiles reachable in China (MAP_IN_CHINA setting)',
        response: { 200: envelopeSchema(z.object({ ip: z.string(), inChina: z.union([z.literal(0), z.literal(1)]) })) },
      },
    },
    async (request) => ok(request, { ip: request.ip, inChina: inChina ? 1 : 0 }),
  );
};
