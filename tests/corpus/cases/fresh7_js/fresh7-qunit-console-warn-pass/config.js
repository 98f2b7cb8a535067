exports.load = (env) => {
  const port = Number(env.PORT);
  if (!Number.isInteger(port) || port <= 0) {
    console.error(`Error: invalid PORT ${JSON.stringify(env.PORT)}, falling back to 8080`);
    return { port: 8080 };
  }
  return { port };
};
