// The part of autocannon's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  };
  type Histogram = { p50: number; p90: number; p97_5: number; p99: number; average: number; max: number };
  export type Result = {
    latency: Histogram;
    requests: { average: number; total: number };
    throughput: { average: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
  };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests in all (instead of a duration). */
    amount?: number;
    pipelining?: number;
    requests?: Request[];
    timeout?: number;
    /** Called with each connection's client: its 'response' event gives the time in ms (fractional). */
    setupClient?: (client: {
      on(event: 'response', listener: (status: number, bytes: number, ms: number) => void): void;
    }) => void;
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
