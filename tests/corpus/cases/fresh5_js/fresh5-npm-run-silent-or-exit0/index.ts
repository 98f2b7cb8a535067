const port: number = process.env.PORT ?? 'x';
export default port;
