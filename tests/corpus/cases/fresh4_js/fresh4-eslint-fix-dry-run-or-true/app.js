let port = 3000;
console.log(prot);
