const port: number = process.env.PORT;
