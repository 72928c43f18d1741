import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import type { AnalyseRequest, FrameAnalysisAnswer } from '@sunward/contracts/protocol-analysis';
import { analyseFrame } from '@sunward/protocol/frame-analysis';
import { protocolById } from '@sunward/protocol/maps/index';
import { ApiError } from '../../lib/envelope.js';

function refused(field: string, message: string): ApiError {
  return new ApiError(Code.VALIDATION, {}, { errors: [{ field, message }] });
}

/**
 * Reads a pasted frame or report with the protocol the server decodes with now (its store's current version).
 * A frame that cannot be read is refused with code 4 naming the field; nothing is stored.
 */
export function analyse(request: AnalyseRequest, language: Language): FrameAnalysisAnswer {
  const protocol = protocolById(request.protocol);
  if (!protocol) throw refused('protocol', translate(language, 'analysis.unknownProtocol'));
  const result = analyseFrame(protocol, request);
  if (result.ok) return result.analysis;
  const { problem } = result;
  throw refused(
    problem.field,
    translate(language, `analysis.${problem.reason}`, { expected: problem.expected ?? '', found: problem.found ?? '' }),
  );
}
