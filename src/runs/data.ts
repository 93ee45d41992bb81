// The runs' second door, for the command line's option definitions: the run settings' entries and their checks
// alone. index.ts also loads the runner, the audit, the judge and the folder's writers; this loads none of them.
export { inputSettingOptions } from "./settings.ts";
