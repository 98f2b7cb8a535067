int main(void){ return missing(); }
int x = ;
