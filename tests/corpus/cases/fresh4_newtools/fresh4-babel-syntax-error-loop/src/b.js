const y = 2;
