int b(void){return undefined_thing;}
