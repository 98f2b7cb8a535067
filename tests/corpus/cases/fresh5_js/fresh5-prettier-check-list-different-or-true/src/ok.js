const ok = 1;
