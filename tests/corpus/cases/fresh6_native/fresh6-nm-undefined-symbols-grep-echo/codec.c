int codec_encode(int x){return x^0x5a;}
static int codec_decode(int x){return x^0x5a;}
int use(int x){return codec_decode(x);}
