entry @k() {
  %0 = make_token : token
  %1 = make_token : token
  %2 = join_tokens %0, %1, %0 : token
  return
}
