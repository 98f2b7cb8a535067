type Config = Record<string, string>;
function required(cfg: Config, key: string): string {
  const v = cfg[key];
  if (v === undefined) throw new Error(`missing required config key: ${key}`);
  return v;
}
console.log(required({ host: 'db' }, 'password'));
