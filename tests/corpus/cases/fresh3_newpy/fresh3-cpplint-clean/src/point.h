// Copyright 2024 Corpus
#ifndef POINT_H_
#define POINT_H_

struct Point {
  int x;
  int y;
};

#endif  // POINT_H_
