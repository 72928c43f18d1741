import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { WeatherQuerySchema, WeatherSchema } from '@sunward/contracts/plant-energy';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.js';
import { ApiError, ok } from '../../lib/envelope.js';
import type { PlantAccess } from '../plants/plant-access.js';
import { createWeatherRepository } from './weather.repository.js';
import { currentWeather } from './weather.service.js';
import type { WeatherProvider } from './weather-provider.js';

/** GET /api/v1/weather?plantId=: the plant's weather station, else the configured provider, else "none". */
export const weatherRoutes: FastifyPluginAsyncZod<{
  db: Database;
  plantAccess: PlantAccess;
  provider: WeatherProvider | undefined;
}> = async (app, { db, plantAccess, provider }) => {
  const repository = createWeatherRepository(db);
  app.get(
    '/api/v1/weather',
    {
      config: { access: 'station.view' },
      schema: {
        tags: ['Plant overview'],
        summary: 'Current weather at a plant: its weather station, or the WEATHER_PROVIDER service (cached 10 minutes), or none',
        querystring: WeatherQuerySchema,
        response: { 200: envelopeSchema(WeatherSchema) },
      },
    },
    async (request) => {
      const { plantId } = request.query;
      await plantAccess.require(request.requireAuth(), plantId, 'view');
      const [place, station] = await Promise.all([repository.place(plantId), repository.station(plantId)]);
      if (!place) throw new ApiError(Code.PLANT_NOT_FOUND);
      return ok(request, await currentWeather({ station, place, provider }));
    },
  );
};
