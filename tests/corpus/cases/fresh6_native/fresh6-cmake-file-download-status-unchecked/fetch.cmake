file(DOWNLOAD "$ENV{HTTP_FILES}/datasets/iris.csv" "${CMAKE_CURRENT_LIST_DIR}/data.csv" STATUS st)
list(GET st 1 msg)
message(STATUS "download: ${msg}")
message(STATUS "dataset ready")
