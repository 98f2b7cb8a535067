const errorCount = 0;
