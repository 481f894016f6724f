// Types of bench/load.mjs, for the load suite (__test__/load.spec.ts).
export declare const functions: Record<string, { run: (i: number) => Promise<unknown>; expect: (i: number) => unknown }>
export declare function concurrent(name: string, calls: number, offset?: number): Promise<number[]>
export declare function rounds(
  calls: number,
  count: number,
  onRound?: (round: number, rssMiB: number, ms: number) => void,
): Promise<{ rss: number[]; failures: { round: number; name: string; wrong: number; first: number }[] }>
export declare function flat(rss: number[]): boolean
export declare function run(): Promise<string>
export declare function writeSection(section: string): void
