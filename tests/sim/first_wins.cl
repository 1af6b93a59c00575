// The first work-item to swap its number into the flag reads it back; every other one's
// exchange fails and writes nothing, so the read races with none of them.
__kernel void first_wins(__global int *winner, __global int *seen)
{
  int i = get_global_id(0);
  if (atomic_cmpxchg(winner, 0, i + 1) == 0)
    seen[0] = *winner;
}
