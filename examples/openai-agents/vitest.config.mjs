import { defineConfig } from 'vitest/config'

// Its own config, so vitest does not pick up the package's one above.
export default defineConfig({ test: { include: ['*.test.ts'] } })
