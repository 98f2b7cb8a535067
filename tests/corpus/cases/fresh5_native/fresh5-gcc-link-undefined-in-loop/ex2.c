int helper(int);
int main(void){return helper(1);}
