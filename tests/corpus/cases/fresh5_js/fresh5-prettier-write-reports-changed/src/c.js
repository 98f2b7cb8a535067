const c = 3;
