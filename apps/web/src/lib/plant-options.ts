import { z } from 'zod';
import { apiRequest } from './api-client';

const PlantOptionSchema = z.object({ id: z.number(), name: z.string(), plantType: z.number() });

/** The query the plant choices live in (plant, device, event and gateway pages share it). */
export const PLANT_OPTIONS_KEY = ['plants', 'options'] as const;

/** Plants the caller can pick, by name (filters, the import and download dialogs). */
export function fetchPlantOptions() {
  return apiRequest('/api/v1/plant', { schema: z.array(PlantOptionSchema) });
}
