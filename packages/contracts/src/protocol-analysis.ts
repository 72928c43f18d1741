import { z } from 'zod';

/*
 * Protocol analysis (issue 19 item 4; spec 01 §2 management: protocol analysis): a frame or a gateway report
 * read with a chosen protocol. The reading itself is packages/protocol/src/frame-analysis.ts.
 */

export const FRAME_FORMATS = ['rtu', 'tcp', 'report'] as const;

/** A gateway report may be pasted whole; its limit is the report's own (4 MB) cut to what a form sends. */
export const ANALYSIS_FRAME_MAX_CHARS = 200_000;

export const AnalyseRequestSchema = z.object({
  /** The protocol's identifier (the `proto` a gateway sends). */
  protocol: z.string().trim().min(1).max(64),
  format: z.enum(FRAME_FORMATS),
  frame: z.string().min(1).max(ANALYSIS_FRAME_MAX_CHARS),
  /** Where a read response's registers start (a response does not carry it). */
  startAddress: z.number().int().min(0).max(65535).optional(),
});
export type AnalyseRequest = z.infer<typeof AnalyseRequestSchema>;

export const FrameAnalysisSchema = z.object({
  format: z.enum(FRAME_FORMATS),
  kind: z.enum(['read-response', 'read-request', 'write-single', 'write-multiple', 'exception', 'report']),
  slave: z.number().int().nullable(),
  functionCode: z.number().int().nullable(),
  crc: z.string().nullable(),
  exceptionCode: z.number().int().nullable(),
  requested: z.object({ address: z.number().int(), count: z.number().int() }).nullable(),
  registers: z.array(z.object({ address: z.number().int(), hex: z.string(), pointId: z.string().nullable() })),
  points: z.array(
    z.object({
      id: z.string(),
      label: z.object({ en: z.string(), zh: z.string() }),
      address: z.number().int(),
      count: z.number().int(),
      type: z.string(),
      unit: z.string().nullable(),
      hex: z.string(),
      value: z.union([z.number(), z.string()]).nullable(),
    }),
  ),
  unknown: z.array(z.object({ from: z.number().int(), to: z.number().int() })),
  problems: z.array(z.string()),
});
export type FrameAnalysisAnswer = z.infer<typeof FrameAnalysisSchema>;
