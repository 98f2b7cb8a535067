console.error('src/index.ts(3,7): error TS2322: Type "string" is not assignable to type "number".');
process.exit(2);
