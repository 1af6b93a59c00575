// Work-items count with atomics into one word, and one of them reads the word plainly with
// no barrier between: the count it sees depends on the order.
__kernel void counter_peek(__global int *counter, __global int *seen)
{
  atomic_inc(counter);
  if (get_local_id(0) == 0)
    *seen = *counter;
}
