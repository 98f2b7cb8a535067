int ok(void){return 7;}
