import type { RollupOptions } from 'rollup';
declare const configs: RollupOptions[];
export default configs;
export declare const outDir: string;
