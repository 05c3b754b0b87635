// The one Node API the tests use (reading a fixture), declared here instead of
// pulling in all of @types/node for the UI's type check.
declare module "node:fs" {
  export function readFileSync(path: URL | string): Uint8Array;
}
