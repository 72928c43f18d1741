import { type AnalyseRequest, FrameAnalysisSchema } from '@sunward/contracts/protocol-analysis';
import { ProtocolPageSchema } from '@sunward/contracts/protocols';
import { apiRequest } from '../../lib/api-client';

/** Protocols whose name, code, identifier or manufacturer contains the keyword (the analysis' map). */
export const searchProtocols = (keyword: string) =>
  apiRequest('/api/v1/protocols', { query: { keyword: keyword || undefined, size: 50 }, schema: ProtocolPageSchema });

export const analyseFrame = (request: AnalyseRequest) =>
  apiRequest('/api/v1/protocol-analysis', { method: 'POST', json: request, schema: FrameAnalysisSchema, tolerate: [4] });
