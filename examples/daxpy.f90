! examples/daxpy.f90 - y = a x + y in Fortran, for the machine it is built on
! (`make examples` builds build/examples-host/daxpy with gfortran): any
! language the host compiles is traced the same way (--func kernel_daxpy).
! Usage: daxpy [N]
subroutine kernel_daxpy(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: a, x(n)
  double precision, intent(inout) :: y(n)
  integer :: i
  do i = 1, n
    y(i) = a * x(i) + y(i)
  end do
end subroutine kernel_daxpy

program daxpy
  implicit none
  integer :: n, i
  character(len=32) :: arg
  double precision, allocatable :: x(:), y(:)
  n = 1000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  allocate (x(n), y(n))
  do i = 1, n
    x(i) = dble(mod(i * 7, n + 3)) / dble(n + 3)
    y(i) = dble(mod(i * 13, n + 3)) / dble(n + 3)
  end do
  call kernel_daxpy(n, 1.5d0, x, y)
  print '(a, f0.6)', 'daxpy ', sum(y)
end program daxpy
