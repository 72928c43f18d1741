// parse-prometheus-text-format ships no types; the shape it returns (prom2json's), as the tests read it.
declare module 'parse-prometheus-text-format' {
  export interface ParsedSample {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedSample[];
  }
  // biome-ignore lint/style/noDefaultExport: the package's own export is a default function.
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
